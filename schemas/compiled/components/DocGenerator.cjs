// Generated from schemas/components/DocGenerator.schema.json by `npm run schemas:compile`; do not edit.
"use strict";
module.exports = validate20;
module.exports.default = validate20;
const schema31 = {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://canvasflow.dev/schemas/components/DocGenerator.schema.json","title":"DocGenerator params","description":"Renders content into a document and offers it for download (RAGFlow DocGeneratorParam, formerly PDFGenerator). A canvas node only. Outputs: download (doc_id, filename, mime_type, size…).","type":"object","properties":{"content":{"type":"string","description":"The document text (Markdown) with template references."},"output_format":{"type":"string","description":"pdf (default), docx, txt, markdown or html.","enum":["pdf","docx","txt","markdown","html"]},"filename":{"type":"string","description":"File name without extension; empty: a generated name."},"header_text":{"type":"string","description":"Text at the top of each page."},"footer_text":{"type":"string","description":"Text at the bottom of each page."},"watermark_text":{"type":"string","description":"Diagonal watermark text."},"add_page_numbers":{"type":"boolean","description":"Number the pages (default true)."},"add_timestamp":{"type":"boolean","description":"Print the generation time (default true)."},"include_download_info_in_content":{"type":"boolean","description":"Also show the download descriptor in a Message's text (default false)."},"font_size":{"type":["number","string"],"description":"Body font size in points (>= 12, default 12)."}}};

function validate20(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="https://canvasflow.dev/schemas/components/DocGenerator.schema.json" */;
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
if(data.content !== undefined){
let data0 = data.content;
if(typeof data0 !== "string"){
const err0 = {instancePath:instancePath+"/content",schemaPath:"#/properties/content/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.content.type,parentSchema:schema31.properties.content,data:data0};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
}
if(data.output_format !== undefined){
let data1 = data.output_format;
if(typeof data1 !== "string"){
const err1 = {instancePath:instancePath+"/output_format",schemaPath:"#/properties/output_format/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.output_format.type,parentSchema:schema31.properties.output_format,data:data1};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
if(!(((((data1 === "pdf") || (data1 === "docx")) || (data1 === "txt")) || (data1 === "markdown")) || (data1 === "html"))){
const err2 = {instancePath:instancePath+"/output_format",schemaPath:"#/properties/output_format/enum",keyword:"enum",params:{allowedValues: schema31.properties.output_format.enum},message:"must be equal to one of the allowed values",schema:schema31.properties.output_format.enum,parentSchema:schema31.properties.output_format,data:data1};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
}
if(data.filename !== undefined){
let data2 = data.filename;
if(typeof data2 !== "string"){
const err3 = {instancePath:instancePath+"/filename",schemaPath:"#/properties/filename/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.filename.type,parentSchema:schema31.properties.filename,data:data2};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
if(data.header_text !== undefined){
let data3 = data.header_text;
if(typeof data3 !== "string"){
const err4 = {instancePath:instancePath+"/header_text",schemaPath:"#/properties/header_text/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.header_text.type,parentSchema:schema31.properties.header_text,data:data3};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
if(data.footer_text !== undefined){
let data4 = data.footer_text;
if(typeof data4 !== "string"){
const err5 = {instancePath:instancePath+"/footer_text",schemaPath:"#/properties/footer_text/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.footer_text.type,parentSchema:schema31.properties.footer_text,data:data4};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
if(data.watermark_text !== undefined){
let data5 = data.watermark_text;
if(typeof data5 !== "string"){
const err6 = {instancePath:instancePath+"/watermark_text",schemaPath:"#/properties/watermark_text/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.watermark_text.type,parentSchema:schema31.properties.watermark_text,data:data5};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
}
if(data.add_page_numbers !== undefined){
let data6 = data.add_page_numbers;
if(typeof data6 !== "boolean"){
const err7 = {instancePath:instancePath+"/add_page_numbers",schemaPath:"#/properties/add_page_numbers/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema31.properties.add_page_numbers.type,parentSchema:schema31.properties.add_page_numbers,data:data6};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
if(data.add_timestamp !== undefined){
let data7 = data.add_timestamp;
if(typeof data7 !== "boolean"){
const err8 = {instancePath:instancePath+"/add_timestamp",schemaPath:"#/properties/add_timestamp/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema31.properties.add_timestamp.type,parentSchema:schema31.properties.add_timestamp,data:data7};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
if(data.include_download_info_in_content !== undefined){
let data8 = data.include_download_info_in_content;
if(typeof data8 !== "boolean"){
const err9 = {instancePath:instancePath+"/include_download_info_in_content",schemaPath:"#/properties/include_download_info_in_content/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema31.properties.include_download_info_in_content.type,parentSchema:schema31.properties.include_download_info_in_content,data:data8};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
}
if(data.font_size !== undefined){
let data9 = data.font_size;
if((!(typeof data9 == "number")) && (typeof data9 !== "string")){
const err10 = {instancePath:instancePath+"/font_size",schemaPath:"#/properties/font_size/type",keyword:"type",params:{type: schema31.properties.font_size.type},message:"must be number,string",schema:schema31.properties.font_size.type,parentSchema:schema31.properties.font_size,data:data9};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
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
validate20.evaluated = {"props":{"content":true,"output_format":true,"filename":true,"header_text":true,"footer_text":true,"watermark_text":true,"add_page_numbers":true,"add_timestamp":true,"include_download_info_in_content":true,"font_size":true},"dynamicProps":false,"dynamicItems":false};

