// Generated from schemas/components/Tokenizer.schema.json by `npm run schemas:compile`; do not edit.
"use strict";
module.exports = validate20;
module.exports.default = validate20;
const schema31 = {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://canvasflow.dev/schemas/components/Tokenizer.schema.json","title":"Tokenizer params","description":"RAGFlow's Tokenizer (\"Indexer\"): full-text fields of each chunk, and the text its vector is made of.","type":"object","properties":{"search_method":{"anyOf":[{"type":"string"},{"type":"array","items":{"type":"string"}}]},"filename_embd_weight":{"type":"number","minimum":0,"maximum":1},"fields":{"anyOf":[{"type":"string"},{"type":"array","items":{"type":"string"}}]}}};

function validate20(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="https://canvasflow.dev/schemas/components/Tokenizer.schema.json" */;
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
if(data.search_method !== undefined){
let data0 = data.search_method;
const _errs2 = errors;
let valid1 = false;
const _errs3 = errors;
if(typeof data0 !== "string"){
const err0 = {instancePath:instancePath+"/search_method",schemaPath:"#/properties/search_method/anyOf/0/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.search_method.anyOf[0].type,parentSchema:schema31.properties.search_method.anyOf[0],data:data0};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
var _valid0 = _errs3 === errors;
valid1 = valid1 || _valid0;
const _errs5 = errors;
if(Array.isArray(data0)){
const len0 = data0.length;
for(let i0=0; i0<len0; i0++){
let data1 = data0[i0];
if(typeof data1 !== "string"){
const err1 = {instancePath:instancePath+"/search_method/" + i0,schemaPath:"#/properties/search_method/anyOf/1/items/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.search_method.anyOf[1].items.type,parentSchema:schema31.properties.search_method.anyOf[1].items,data:data1};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
}
}
else {
const err2 = {instancePath:instancePath+"/search_method",schemaPath:"#/properties/search_method/anyOf/1/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema31.properties.search_method.anyOf[1].type,parentSchema:schema31.properties.search_method.anyOf[1],data:data0};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
var _valid0 = _errs5 === errors;
valid1 = valid1 || _valid0;
if(!valid1){
const err3 = {instancePath:instancePath+"/search_method",schemaPath:"#/properties/search_method/anyOf",keyword:"anyOf",params:{},message:"must match a schema in anyOf",schema:schema31.properties.search_method.anyOf,parentSchema:schema31.properties.search_method,data:data0};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
else {
errors = _errs2;
if(vErrors !== null){
if(_errs2){
vErrors.length = _errs2;
}
else {
vErrors = null;
}
}
}
}
if(data.filename_embd_weight !== undefined){
let data2 = data.filename_embd_weight;
if(typeof data2 == "number"){
if(data2 > 1 || isNaN(data2)){
const err4 = {instancePath:instancePath+"/filename_embd_weight",schemaPath:"#/properties/filename_embd_weight/maximum",keyword:"maximum",params:{comparison: "<=", limit: 1},message:"must be <= 1",schema:1,parentSchema:schema31.properties.filename_embd_weight,data:data2};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
if(data2 < 0 || isNaN(data2)){
const err5 = {instancePath:instancePath+"/filename_embd_weight",schemaPath:"#/properties/filename_embd_weight/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0",schema:0,parentSchema:schema31.properties.filename_embd_weight,data:data2};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
else {
const err6 = {instancePath:instancePath+"/filename_embd_weight",schemaPath:"#/properties/filename_embd_weight/type",keyword:"type",params:{type: "number"},message:"must be number",schema:schema31.properties.filename_embd_weight.type,parentSchema:schema31.properties.filename_embd_weight,data:data2};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
}
if(data.fields !== undefined){
let data3 = data.fields;
const _errs12 = errors;
let valid4 = false;
const _errs13 = errors;
if(typeof data3 !== "string"){
const err7 = {instancePath:instancePath+"/fields",schemaPath:"#/properties/fields/anyOf/0/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.fields.anyOf[0].type,parentSchema:schema31.properties.fields.anyOf[0],data:data3};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
var _valid1 = _errs13 === errors;
valid4 = valid4 || _valid1;
const _errs15 = errors;
if(Array.isArray(data3)){
const len1 = data3.length;
for(let i1=0; i1<len1; i1++){
let data4 = data3[i1];
if(typeof data4 !== "string"){
const err8 = {instancePath:instancePath+"/fields/" + i1,schemaPath:"#/properties/fields/anyOf/1/items/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.fields.anyOf[1].items.type,parentSchema:schema31.properties.fields.anyOf[1].items,data:data4};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
}
else {
const err9 = {instancePath:instancePath+"/fields",schemaPath:"#/properties/fields/anyOf/1/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema31.properties.fields.anyOf[1].type,parentSchema:schema31.properties.fields.anyOf[1],data:data3};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
var _valid1 = _errs15 === errors;
valid4 = valid4 || _valid1;
if(!valid4){
const err10 = {instancePath:instancePath+"/fields",schemaPath:"#/properties/fields/anyOf",keyword:"anyOf",params:{},message:"must match a schema in anyOf",schema:schema31.properties.fields.anyOf,parentSchema:schema31.properties.fields,data:data3};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
else {
errors = _errs12;
if(vErrors !== null){
if(_errs12){
vErrors.length = _errs12;
}
else {
vErrors = null;
}
}
}
}
}
else {
const err11 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema31.type,parentSchema:schema31,data};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
validate20.errors = vErrors;
return errors === 0;
}
validate20.evaluated = {"props":{"search_method":true,"filename_embd_weight":true,"fields":true},"dynamicProps":false,"dynamicItems":false};

