// Generated from schemas/components/Retrieval.schema.json by `npm run schemas:compile`; do not edit.
"use strict";
module.exports = validate20;
module.exports.default = validate20;
const schema31 = {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://canvasflow.dev/schemas/components/Retrieval.schema.json","title":"Retrieval params","description":"Searches datasets (or memories) for the query (RAGFlow RetrievalParam). Usable as an Agent tool and as a canvas node. Outputs: formalized_content, json.","type":"object","properties":{"query":{"type":"string","description":"The keywords to search for. As a canvas node: a reference (\"sys.query\", \"cpn@var\") or text with {references}. As an Agent tool the model supplies it."},"similarity_threshold":{"type":["number","string"],"description":"Minimum similarity of a chunk, in [0, 1] (default 0.2)."},"keywords_similarity_weight":{"type":["number","string"],"description":"Weight of keyword similarity against vector similarity, in [0, 1] (default 0.5)."},"top_n":{"type":["number","string"],"description":"Number of chunks returned (> 0, default 8)."},"top_k":{"type":["integer","string"],"description":"Number of candidate chunks before reranking (default 1024)."},"dataset_ids":{"type":"array","description":"Datasets to search: ids, or references (entries holding \"@\") to dataset names or ids.","items":{"type":"string"}},"kb_ids":{"type":"array","description":"Older name of dataset_ids.","items":{"type":"string"}},"kb_vars":{"type":"array","description":"Older list of references to dataset names or ids.","items":{"type":"string"}},"memory_ids":{"type":"array","description":"Memories to search when retrieval_from is \"memory\".","items":{"type":"string"}},"retrieval_from":{"type":"string","description":"What to search: \"dataset\" (default) or \"memory\"."},"rerank_id":{"type":"string","description":"Rerank model; empty: none."},"empty_response":{"type":"string","description":"Text returned when nothing is found."},"use_kg":{"type":"boolean","description":"Also search the knowledge graph (default false)."},"cross_languages":{"type":"array","description":"Languages to translate the query into before searching.","items":{"type":"string"}},"toc_enhance":{"type":"boolean","description":"Use the documents' table of contents to pick chunks (default false)."},"meta_data_filter":{"type":["object","null"],"description":"Filter on document metadata."},"function_name":{"type":"string","description":"Function name the model sees (default \"search_my_dateset\")."}}};

function validate20(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="https://canvasflow.dev/schemas/components/Retrieval.schema.json" */;
let vErrors = null;
let errors = 0;
const evaluated0 = validate20.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.query !== undefined){
let data0 = data.query;
if(typeof data0 !== "string"){
const err0 = {instancePath:instancePath+"/query",schemaPath:"#/properties/query/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.query.type,parentSchema:schema31.properties.query,data:data0};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
}
if(data.similarity_threshold !== undefined){
let data1 = data.similarity_threshold;
if((!(typeof data1 == "number")) && (typeof data1 !== "string")){
const err1 = {instancePath:instancePath+"/similarity_threshold",schemaPath:"#/properties/similarity_threshold/type",keyword:"type",params:{type: schema31.properties.similarity_threshold.type},message:"must be number,string",schema:schema31.properties.similarity_threshold.type,parentSchema:schema31.properties.similarity_threshold,data:data1};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
}
if(data.keywords_similarity_weight !== undefined){
let data2 = data.keywords_similarity_weight;
if((!(typeof data2 == "number")) && (typeof data2 !== "string")){
const err2 = {instancePath:instancePath+"/keywords_similarity_weight",schemaPath:"#/properties/keywords_similarity_weight/type",keyword:"type",params:{type: schema31.properties.keywords_similarity_weight.type},message:"must be number,string",schema:schema31.properties.keywords_similarity_weight.type,parentSchema:schema31.properties.keywords_similarity_weight,data:data2};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
}
if(data.top_n !== undefined){
let data3 = data.top_n;
if((!(typeof data3 == "number")) && (typeof data3 !== "string")){
const err3 = {instancePath:instancePath+"/top_n",schemaPath:"#/properties/top_n/type",keyword:"type",params:{type: schema31.properties.top_n.type},message:"must be number,string",schema:schema31.properties.top_n.type,parentSchema:schema31.properties.top_n,data:data3};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
if(data.top_k !== undefined){
let data4 = data.top_k;
if((!((typeof data4 == "number") && (!(data4 % 1) && !isNaN(data4)))) && (typeof data4 !== "string")){
const err4 = {instancePath:instancePath+"/top_k",schemaPath:"#/properties/top_k/type",keyword:"type",params:{type: schema31.properties.top_k.type},message:"must be integer,string",schema:schema31.properties.top_k.type,parentSchema:schema31.properties.top_k,data:data4};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
if(data.dataset_ids !== undefined){
let data5 = data.dataset_ids;
if(Array.isArray(data5)){
const len0 = data5.length;
for(let i0=0; i0<len0; i0++){
let data6 = data5[i0];
if(typeof data6 !== "string"){
const err5 = {instancePath:instancePath+"/dataset_ids/" + i0,schemaPath:"#/properties/dataset_ids/items/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.dataset_ids.items.type,parentSchema:schema31.properties.dataset_ids.items,data:data6};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
}
else {
const err6 = {instancePath:instancePath+"/dataset_ids",schemaPath:"#/properties/dataset_ids/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema31.properties.dataset_ids.type,parentSchema:schema31.properties.dataset_ids,data:data5};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
}
if(data.kb_ids !== undefined){
let data7 = data.kb_ids;
if(Array.isArray(data7)){
const len1 = data7.length;
for(let i1=0; i1<len1; i1++){
let data8 = data7[i1];
if(typeof data8 !== "string"){
const err7 = {instancePath:instancePath+"/kb_ids/" + i1,schemaPath:"#/properties/kb_ids/items/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.kb_ids.items.type,parentSchema:schema31.properties.kb_ids.items,data:data8};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
}
else {
const err8 = {instancePath:instancePath+"/kb_ids",schemaPath:"#/properties/kb_ids/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema31.properties.kb_ids.type,parentSchema:schema31.properties.kb_ids,data:data7};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
if(data.kb_vars !== undefined){
let data9 = data.kb_vars;
if(Array.isArray(data9)){
const len2 = data9.length;
for(let i2=0; i2<len2; i2++){
let data10 = data9[i2];
if(typeof data10 !== "string"){
const err9 = {instancePath:instancePath+"/kb_vars/" + i2,schemaPath:"#/properties/kb_vars/items/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.kb_vars.items.type,parentSchema:schema31.properties.kb_vars.items,data:data10};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
}
}
else {
const err10 = {instancePath:instancePath+"/kb_vars",schemaPath:"#/properties/kb_vars/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema31.properties.kb_vars.type,parentSchema:schema31.properties.kb_vars,data:data9};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
if(data.memory_ids !== undefined){
let data11 = data.memory_ids;
if(Array.isArray(data11)){
const len3 = data11.length;
for(let i3=0; i3<len3; i3++){
let data12 = data11[i3];
if(typeof data12 !== "string"){
const err11 = {instancePath:instancePath+"/memory_ids/" + i3,schemaPath:"#/properties/memory_ids/items/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.memory_ids.items.type,parentSchema:schema31.properties.memory_ids.items,data:data12};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
}
}
else {
const err12 = {instancePath:instancePath+"/memory_ids",schemaPath:"#/properties/memory_ids/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema31.properties.memory_ids.type,parentSchema:schema31.properties.memory_ids,data:data11};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
}
if(data.retrieval_from !== undefined){
let data13 = data.retrieval_from;
if(typeof data13 !== "string"){
const err13 = {instancePath:instancePath+"/retrieval_from",schemaPath:"#/properties/retrieval_from/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.retrieval_from.type,parentSchema:schema31.properties.retrieval_from,data:data13};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
}
if(data.rerank_id !== undefined){
let data14 = data.rerank_id;
if(typeof data14 !== "string"){
const err14 = {instancePath:instancePath+"/rerank_id",schemaPath:"#/properties/rerank_id/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.rerank_id.type,parentSchema:schema31.properties.rerank_id,data:data14};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
}
if(data.empty_response !== undefined){
let data15 = data.empty_response;
if(typeof data15 !== "string"){
const err15 = {instancePath:instancePath+"/empty_response",schemaPath:"#/properties/empty_response/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.empty_response.type,parentSchema:schema31.properties.empty_response,data:data15};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
}
if(data.use_kg !== undefined){
let data16 = data.use_kg;
if(typeof data16 !== "boolean"){
const err16 = {instancePath:instancePath+"/use_kg",schemaPath:"#/properties/use_kg/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema31.properties.use_kg.type,parentSchema:schema31.properties.use_kg,data:data16};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
}
if(data.cross_languages !== undefined){
let data17 = data.cross_languages;
if(Array.isArray(data17)){
const len4 = data17.length;
for(let i4=0; i4<len4; i4++){
let data18 = data17[i4];
if(typeof data18 !== "string"){
const err17 = {instancePath:instancePath+"/cross_languages/" + i4,schemaPath:"#/properties/cross_languages/items/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.cross_languages.items.type,parentSchema:schema31.properties.cross_languages.items,data:data18};
if(vErrors === null){
vErrors = [err17];
}
else {
vErrors.push(err17);
}
errors++;
}
}
}
else {
const err18 = {instancePath:instancePath+"/cross_languages",schemaPath:"#/properties/cross_languages/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema31.properties.cross_languages.type,parentSchema:schema31.properties.cross_languages,data:data17};
if(vErrors === null){
vErrors = [err18];
}
else {
vErrors.push(err18);
}
errors++;
}
}
if(data.toc_enhance !== undefined){
let data19 = data.toc_enhance;
if(typeof data19 !== "boolean"){
const err19 = {instancePath:instancePath+"/toc_enhance",schemaPath:"#/properties/toc_enhance/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema31.properties.toc_enhance.type,parentSchema:schema31.properties.toc_enhance,data:data19};
if(vErrors === null){
vErrors = [err19];
}
else {
vErrors.push(err19);
}
errors++;
}
}
if(data.meta_data_filter !== undefined){
let data20 = data.meta_data_filter;
if((!(data20 && typeof data20 == "object" && !Array.isArray(data20))) && (data20 !== null)){
const err20 = {instancePath:instancePath+"/meta_data_filter",schemaPath:"#/properties/meta_data_filter/type",keyword:"type",params:{type: schema31.properties.meta_data_filter.type},message:"must be object,null",schema:schema31.properties.meta_data_filter.type,parentSchema:schema31.properties.meta_data_filter,data:data20};
if(vErrors === null){
vErrors = [err20];
}
else {
vErrors.push(err20);
}
errors++;
}
}
if(data.function_name !== undefined){
let data21 = data.function_name;
if(typeof data21 !== "string"){
const err21 = {instancePath:instancePath+"/function_name",schemaPath:"#/properties/function_name/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.function_name.type,parentSchema:schema31.properties.function_name,data:data21};
if(vErrors === null){
vErrors = [err21];
}
else {
vErrors.push(err21);
}
errors++;
}
}
}
else {
const err22 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema31.type,parentSchema:schema31,data};
if(vErrors === null){
vErrors = [err22];
}
else {
vErrors.push(err22);
}
errors++;
}
validate20.errors = vErrors;
return errors === 0;
}
validate20.evaluated = {"props":{"query":true,"similarity_threshold":true,"keywords_similarity_weight":true,"top_n":true,"top_k":true,"dataset_ids":true,"kb_ids":true,"kb_vars":true,"memory_ids":true,"retrieval_from":true,"rerank_id":true,"empty_response":true,"use_kg":true,"cross_languages":true,"toc_enhance":true,"meta_data_filter":true,"function_name":true},"dynamicProps":false,"dynamicItems":false};

