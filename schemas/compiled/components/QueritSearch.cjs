// Generated from schemas/components/QueritSearch.schema.json by `npm run schemas:compile`; do not edit.
"use strict";
module.exports = validate20;
module.exports.default = validate20;
const schema31 = {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://canvasflow.dev/schemas/components/QueritSearch.schema.json","title":"QueritSearch params","description":"Live web search with Querit (RAGFlow QueritSearchParam). Usable as an Agent tool and as a canvas node. Outputs: formalized_content, json.","type":"object","properties":{"query":{"type":"string","description":"Search keywords. As a canvas node: a reference (\"sys.query\", \"cpn@var\") or text with {references}. As an Agent tool the model supplies it."},"count":{"type":["integer","string"],"description":"Number of results (>= 1, default 10)."},"chunks_per_doc":{"type":["integer","string","null"],"description":"Summary chunks per document, 1 to 3 (default 3)."},"site_include":{"description":"Sites results must come from.","anyOf":[{"type":"array","items":{"type":"string"}},{"type":"string"}]},"site_exclude":{"description":"Sites results must not come from.","anyOf":[{"type":"array","items":{"type":"string"}},{"type":"string"}]},"time_range":{"type":"string","description":"dN, wN, mN, yN or YYYY-MM-DDtoYYYY-MM-DD; empty: any time."},"country_include":{"description":"Countries results must be associated with.","anyOf":[{"type":"array","items":{"type":"string"}},{"type":"string"}]},"language_include":{"description":"Languages results must be in.","anyOf":[{"type":"array","items":{"type":"string"}},{"type":"string"}]},"api_key":{"type":"string","description":"Querit API key; empty falls back to the QUERIT_API_KEY environment variable."}}};

function validate20(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="https://canvasflow.dev/schemas/components/QueritSearch.schema.json" */;
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
if(data.count !== undefined){
let data1 = data.count;
if((!((typeof data1 == "number") && (!(data1 % 1) && !isNaN(data1)))) && (typeof data1 !== "string")){
const err1 = {instancePath:instancePath+"/count",schemaPath:"#/properties/count/type",keyword:"type",params:{type: schema31.properties.count.type},message:"must be integer,string",schema:schema31.properties.count.type,parentSchema:schema31.properties.count,data:data1};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
}
if(data.chunks_per_doc !== undefined){
let data2 = data.chunks_per_doc;
if(((!((typeof data2 == "number") && (!(data2 % 1) && !isNaN(data2)))) && (typeof data2 !== "string")) && (data2 !== null)){
const err2 = {instancePath:instancePath+"/chunks_per_doc",schemaPath:"#/properties/chunks_per_doc/type",keyword:"type",params:{type: schema31.properties.chunks_per_doc.type},message:"must be integer,string,null",schema:schema31.properties.chunks_per_doc.type,parentSchema:schema31.properties.chunks_per_doc,data:data2};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
}
if(data.site_include !== undefined){
let data3 = data.site_include;
const _errs8 = errors;
let valid1 = false;
const _errs9 = errors;
if(Array.isArray(data3)){
const len0 = data3.length;
for(let i0=0; i0<len0; i0++){
let data4 = data3[i0];
if(typeof data4 !== "string"){
const err3 = {instancePath:instancePath+"/site_include/" + i0,schemaPath:"#/properties/site_include/anyOf/0/items/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.site_include.anyOf[0].items.type,parentSchema:schema31.properties.site_include.anyOf[0].items,data:data4};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
}
else {
const err4 = {instancePath:instancePath+"/site_include",schemaPath:"#/properties/site_include/anyOf/0/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema31.properties.site_include.anyOf[0].type,parentSchema:schema31.properties.site_include.anyOf[0],data:data3};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
var _valid0 = _errs9 === errors;
valid1 = valid1 || _valid0;
const _errs13 = errors;
if(typeof data3 !== "string"){
const err5 = {instancePath:instancePath+"/site_include",schemaPath:"#/properties/site_include/anyOf/1/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.site_include.anyOf[1].type,parentSchema:schema31.properties.site_include.anyOf[1],data:data3};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
var _valid0 = _errs13 === errors;
valid1 = valid1 || _valid0;
if(!valid1){
const err6 = {instancePath:instancePath+"/site_include",schemaPath:"#/properties/site_include/anyOf",keyword:"anyOf",params:{},message:"must match a schema in anyOf",schema:schema31.properties.site_include.anyOf,parentSchema:schema31.properties.site_include,data:data3};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
else {
errors = _errs8;
if(vErrors !== null){
if(_errs8){
vErrors.length = _errs8;
}
else {
vErrors = null;
}
}
}
}
if(data.site_exclude !== undefined){
let data5 = data.site_exclude;
const _errs16 = errors;
let valid4 = false;
const _errs17 = errors;
if(Array.isArray(data5)){
const len1 = data5.length;
for(let i1=0; i1<len1; i1++){
let data6 = data5[i1];
if(typeof data6 !== "string"){
const err7 = {instancePath:instancePath+"/site_exclude/" + i1,schemaPath:"#/properties/site_exclude/anyOf/0/items/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.site_exclude.anyOf[0].items.type,parentSchema:schema31.properties.site_exclude.anyOf[0].items,data:data6};
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
const err8 = {instancePath:instancePath+"/site_exclude",schemaPath:"#/properties/site_exclude/anyOf/0/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema31.properties.site_exclude.anyOf[0].type,parentSchema:schema31.properties.site_exclude.anyOf[0],data:data5};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
var _valid1 = _errs17 === errors;
valid4 = valid4 || _valid1;
const _errs21 = errors;
if(typeof data5 !== "string"){
const err9 = {instancePath:instancePath+"/site_exclude",schemaPath:"#/properties/site_exclude/anyOf/1/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.site_exclude.anyOf[1].type,parentSchema:schema31.properties.site_exclude.anyOf[1],data:data5};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
var _valid1 = _errs21 === errors;
valid4 = valid4 || _valid1;
if(!valid4){
const err10 = {instancePath:instancePath+"/site_exclude",schemaPath:"#/properties/site_exclude/anyOf",keyword:"anyOf",params:{},message:"must match a schema in anyOf",schema:schema31.properties.site_exclude.anyOf,parentSchema:schema31.properties.site_exclude,data:data5};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
else {
errors = _errs16;
if(vErrors !== null){
if(_errs16){
vErrors.length = _errs16;
}
else {
vErrors = null;
}
}
}
}
if(data.time_range !== undefined){
let data7 = data.time_range;
if(typeof data7 !== "string"){
const err11 = {instancePath:instancePath+"/time_range",schemaPath:"#/properties/time_range/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.time_range.type,parentSchema:schema31.properties.time_range,data:data7};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
}
if(data.country_include !== undefined){
let data8 = data.country_include;
const _errs26 = errors;
let valid7 = false;
const _errs27 = errors;
if(Array.isArray(data8)){
const len2 = data8.length;
for(let i2=0; i2<len2; i2++){
let data9 = data8[i2];
if(typeof data9 !== "string"){
const err12 = {instancePath:instancePath+"/country_include/" + i2,schemaPath:"#/properties/country_include/anyOf/0/items/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.country_include.anyOf[0].items.type,parentSchema:schema31.properties.country_include.anyOf[0].items,data:data9};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
}
}
else {
const err13 = {instancePath:instancePath+"/country_include",schemaPath:"#/properties/country_include/anyOf/0/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema31.properties.country_include.anyOf[0].type,parentSchema:schema31.properties.country_include.anyOf[0],data:data8};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
var _valid2 = _errs27 === errors;
valid7 = valid7 || _valid2;
const _errs31 = errors;
if(typeof data8 !== "string"){
const err14 = {instancePath:instancePath+"/country_include",schemaPath:"#/properties/country_include/anyOf/1/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.country_include.anyOf[1].type,parentSchema:schema31.properties.country_include.anyOf[1],data:data8};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
var _valid2 = _errs31 === errors;
valid7 = valid7 || _valid2;
if(!valid7){
const err15 = {instancePath:instancePath+"/country_include",schemaPath:"#/properties/country_include/anyOf",keyword:"anyOf",params:{},message:"must match a schema in anyOf",schema:schema31.properties.country_include.anyOf,parentSchema:schema31.properties.country_include,data:data8};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
else {
errors = _errs26;
if(vErrors !== null){
if(_errs26){
vErrors.length = _errs26;
}
else {
vErrors = null;
}
}
}
}
if(data.language_include !== undefined){
let data10 = data.language_include;
const _errs34 = errors;
let valid10 = false;
const _errs35 = errors;
if(Array.isArray(data10)){
const len3 = data10.length;
for(let i3=0; i3<len3; i3++){
let data11 = data10[i3];
if(typeof data11 !== "string"){
const err16 = {instancePath:instancePath+"/language_include/" + i3,schemaPath:"#/properties/language_include/anyOf/0/items/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.language_include.anyOf[0].items.type,parentSchema:schema31.properties.language_include.anyOf[0].items,data:data11};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
}
}
else {
const err17 = {instancePath:instancePath+"/language_include",schemaPath:"#/properties/language_include/anyOf/0/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema31.properties.language_include.anyOf[0].type,parentSchema:schema31.properties.language_include.anyOf[0],data:data10};
if(vErrors === null){
vErrors = [err17];
}
else {
vErrors.push(err17);
}
errors++;
}
var _valid3 = _errs35 === errors;
valid10 = valid10 || _valid3;
const _errs39 = errors;
if(typeof data10 !== "string"){
const err18 = {instancePath:instancePath+"/language_include",schemaPath:"#/properties/language_include/anyOf/1/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.language_include.anyOf[1].type,parentSchema:schema31.properties.language_include.anyOf[1],data:data10};
if(vErrors === null){
vErrors = [err18];
}
else {
vErrors.push(err18);
}
errors++;
}
var _valid3 = _errs39 === errors;
valid10 = valid10 || _valid3;
if(!valid10){
const err19 = {instancePath:instancePath+"/language_include",schemaPath:"#/properties/language_include/anyOf",keyword:"anyOf",params:{},message:"must match a schema in anyOf",schema:schema31.properties.language_include.anyOf,parentSchema:schema31.properties.language_include,data:data10};
if(vErrors === null){
vErrors = [err19];
}
else {
vErrors.push(err19);
}
errors++;
}
else {
errors = _errs34;
if(vErrors !== null){
if(_errs34){
vErrors.length = _errs34;
}
else {
vErrors = null;
}
}
}
}
if(data.api_key !== undefined){
let data12 = data.api_key;
if(typeof data12 !== "string"){
const err20 = {instancePath:instancePath+"/api_key",schemaPath:"#/properties/api_key/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.api_key.type,parentSchema:schema31.properties.api_key,data:data12};
if(vErrors === null){
vErrors = [err20];
}
else {
vErrors.push(err20);
}
errors++;
}
}
}
else {
const err21 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema31.type,parentSchema:schema31,data};
if(vErrors === null){
vErrors = [err21];
}
else {
vErrors.push(err21);
}
errors++;
}
validate20.errors = vErrors;
return errors === 0;
}
validate20.evaluated = {"props":{"query":true,"count":true,"chunks_per_doc":true,"site_include":true,"site_exclude":true,"time_range":true,"country_include":true,"language_include":true,"api_key":true},"dynamicProps":false,"dynamicItems":false};

